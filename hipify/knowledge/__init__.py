"""What the tool knows: the mapping table, the diagnostic codes, facts about C and C++, API families."""
