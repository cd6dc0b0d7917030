// helper_string.h for HIP, written by hipify-py: the command-line and file-path helpers of NVIDIA's CUDA samples
// (their Common folder), with the behaviour NVIDIA documents, for a translated tree that includes the helper without
// holding it. No CUDA or HIP call is needed here.
#ifndef HIPIFY_SAMPLES_HELPER_STRING_H
#define HIPIFY_SAMPLES_HELPER_STRING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <string>

#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif

#ifndef STRCASECMP
#define STRCASECMP strcasecmp
#endif
#ifndef STRNCASECMP
#define STRNCASECMP strncasecmp
#endif
#ifndef STRCPY
#define STRCPY(sFilePath, nLength, sPath) strcpy(sFilePath, sPath)
#endif
#ifndef FOPEN
#define FOPEN(fHandle, filename, mode) (fHandle = fopen(filename, mode))
#endif
#ifndef FOPEN_FAIL
#define FOPEN_FAIL(result) (result == NULL)
#endif
#ifndef SSCANF
#define SSCANF sscanf
#endif
#ifndef SPRINTF
#define SPRINTF sprintf
#endif

// How many leading `delimiter` characters the argument has ("--device=1" -> 2); the whole length when it is all
// delimiters.
inline int stringRemoveDelimiter(char delimiter, const char* string) {
  int skip = 0;
  while (string[skip] == delimiter) ++skip;
  if (string[skip] == '\0') return static_cast<int>(strlen(string));
  return skip;
}

// The extension of a file name after its last '.' (the extension is allocated; *extension stays unset without one).
inline int getFileExtension(char* filename, char** extension) {
  int length = static_cast<int>(strlen(filename));
  while (length > 0 && filename[length] != '.') --length;
  if (length == 0 || filename[length] != '.') return 0;
  *extension = strdup(filename + length + 1);
  return static_cast<int>(strlen(*extension));
}

namespace hipify_samples_helpers {
// Whether argv[i] (after its leading dashes) is `name` or `name=...`; the value after '=' through *value.
inline bool argument_is(const char* argument, const char* name, const char** value) {
  const char* word = argument + stringRemoveDelimiter('-', argument);
  const char* equals = strchr(word, '=');
  size_t length = equals ? static_cast<size_t>(equals - word) : strlen(word);
  if (length != strlen(name) || STRNCASECMP(word, name, length) != 0) return false;
  if (value) *value = equals ? equals + 1 : word + length;
  return true;
}
}  // namespace hipify_samples_helpers

inline bool checkCmdLineFlag(const int argc, const char** argv, const char* string_ref) {
  for (int i = 1; i < argc; ++i)
    if (hipify_samples_helpers::argument_is(argv[i], string_ref, nullptr)) return true;
  return false;
}

template <class T>
inline bool getCmdLineArgumentValue(const int argc, const char** argv, const char* string_ref, T* value) {
  const char* text = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (hipify_samples_helpers::argument_is(argv[i], string_ref, &text) && *text) {
      *value = static_cast<T>(atof(text));
      return true;
    }
  }
  return false;
}

inline int getCmdLineArgumentInt(const int argc, const char** argv, const char* string_ref) {
  const char* text = nullptr;
  for (int i = 1; i < argc; ++i)
    if (hipify_samples_helpers::argument_is(argv[i], string_ref, &text)) return *text ? atoi(text) : 0;
  return 0;
}

inline float getCmdLineArgumentFloat(const int argc, const char** argv, const char* string_ref) {
  const char* text = nullptr;
  for (int i = 1; i < argc; ++i)
    if (hipify_samples_helpers::argument_is(argv[i], string_ref, &text)) return *text ? static_cast<float>(atof(text)) : 0.f;
  return 0.f;
}

inline bool getCmdLineArgumentString(const int argc, const char** argv, const char* string_ref, char** string_retval) {
  const char* text = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (hipify_samples_helpers::argument_is(argv[i], string_ref, &text)) {
      *string_retval = const_cast<char*>(text);
      return true;
    }
  }
  *string_retval = nullptr;
  return false;
}

// The path of `filename` found in the current folder or the usual data folders beside the executable (allocated),
// or NULL.
inline char* sdkFindFilePath(const char* filename, const char* executable_path) {
  const char* folders[] = {"./", "./data/", "../data/", "../../data/", "../", "../../"};
  std::string executable_dir;
  if (executable_path) {
    executable_dir = executable_path;
    size_t slash = executable_dir.find_last_of('/');
    executable_dir = slash == std::string::npos ? std::string() : executable_dir.substr(0, slash + 1);
  }
  for (const char* folder : folders) {
    for (const std::string& base : {std::string(), executable_dir}) {
      std::string path = base + folder + filename;
      FILE* file = fopen(path.c_str(), "rb");
      if (file) {
        fclose(file);
        return strdup(path.c_str());
      }
    }
  }
  return NULL;
}

#endif  // HIPIFY_SAMPLES_HELPER_STRING_H
