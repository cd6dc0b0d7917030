"""The command line and its configuration: parsing, the project's configuration file, tables and explain."""
