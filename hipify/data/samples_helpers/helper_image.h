// helper_image.h for HIP, written by hipify-py: the image-file and comparison helpers of NVIDIA's CUDA samples
// (PGM/PPM files, raw data files, comparisons with a tolerance), with the behaviour NVIDIA documents. Plain C++.
#ifndef HIPIFY_SAMPLES_HELPER_IMAGE_H
#define HIPIFY_SAMPLES_HELPER_IMAGE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "helper_string.h"

// A binary PGM (P5) or PPM (P6) file: its pixels (allocated unless *data is set), width, height and channels.
inline bool __loadPPM(const char* file, unsigned char** data, unsigned int* w, unsigned int* h, unsigned int* channels) {
  FILE* fp = fopen(file, "rb");
  if (!fp) return false;
  char magic[3] = {0, 0, 0};
  unsigned int width = 0, height = 0, maxval = 0;
  bool ok = fscanf(fp, "%2s", magic) == 1;
  *channels = (strcmp(magic, "P5") == 0) ? 1 : (strcmp(magic, "P6") == 0) ? 3 : 0;
  ok = ok && *channels != 0;
  // the header's numbers, skipping comments
  unsigned int* fields[3] = {&width, &height, &maxval};
  for (int i = 0; ok && i < 3; ++i) {
    int c = fgetc(fp);
    while (c == '#' || c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      if (c == '#')
        while (c != '\n' && c != EOF) c = fgetc(fp);
      c = fgetc(fp);
    }
    ungetc(c, fp);
    ok = fscanf(fp, "%u", fields[i]) == 1;
  }
  ok = ok && maxval < 256 && fgetc(fp) != EOF;
  if (ok) {
    size_t size = static_cast<size_t>(width) * height * *channels;
    if (*data == NULL) *data = static_cast<unsigned char*>(malloc(size));
    ok = fread(*data, 1, size, fp) == size;
    *w = width;
    *h = height;
  }
  fclose(fp);
  return ok;
}

inline bool __savePPM(const char* file, unsigned char* data, unsigned int w, unsigned int h, unsigned int channels) {
  FILE* fp = fopen(file, "wb");
  if (!fp) return false;
  fprintf(fp, "%s\n%u %u\n255\n", channels == 1 ? "P5" : "P6", w, h);
  size_t size = static_cast<size_t>(w) * h * channels;
  bool ok = fwrite(data, 1, size, fp) == size;
  fclose(fp);
  return ok;
}

template <class T>
inline bool sdkLoadPGM(const char* file, T** data, unsigned int* w, unsigned int* h) {
  unsigned char* pixels = NULL;
  unsigned int channels = 0;
  if (!__loadPPM(file, &pixels, w, h, &channels) || channels != 1) {
    free(pixels);
    return false;
  }
  size_t size = static_cast<size_t>(*w) * *h;
  if (*data == NULL) *data = static_cast<T*>(malloc(sizeof(T) * size));
  for (size_t i = 0; i < size; ++i) (*data)[i] = static_cast<T>(pixels[i]);
  free(pixels);
  return true;
}

template <class T>
inline bool sdkSavePGM(const char* file, T* data, unsigned int w, unsigned int h) {
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * h);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(data[i]);
  return __savePPM(file, pixels.data(), w, h, 1);
}

// A PPM as four channels per pixel (the fourth 0).
inline bool sdkLoadPPM4ub(const char* file, unsigned char** data, unsigned int* w, unsigned int* h) {
  unsigned char* pixels = NULL;
  unsigned int channels = 0;
  if (!__loadPPM(file, &pixels, w, h, &channels) || channels != 3) {
    free(pixels);
    return false;
  }
  size_t count = static_cast<size_t>(*w) * *h;
  if (*data == NULL) *data = static_cast<unsigned char*>(malloc(count * 4));
  for (size_t i = 0; i < count; ++i) {
    for (int c = 0; c < 3; ++c) (*data)[4 * i + c] = pixels[3 * i + c];
    (*data)[4 * i + 3] = 0;
  }
  free(pixels);
  return true;
}

inline bool sdkSavePPM4ub(const char* file, unsigned char* data, unsigned int w, unsigned int h) {
  size_t count = static_cast<size_t>(w) * h;
  std::vector<unsigned char> pixels(count * 3);
  for (size_t i = 0; i < count; ++i)
    for (int c = 0; c < 3; ++c) pixels[3 * i + c] = data[4 * i + c];
  return __savePPM(file, pixels.data(), w, h, 3);
}

// Whitespace-separated values of a text file (allocated unless *data is set).
template <class T>
inline bool sdkReadFile(const char* filename, T** data, unsigned int* len, bool verbose) {
  FILE* fp = fopen(filename, "r");
  if (!fp) {
    if (verbose) fprintf(stderr, "sdkReadFile: unable to open %s\n", filename);
    return false;
  }
  std::vector<T> values;
  double value;
  while (fscanf(fp, "%lf", &value) == 1) values.push_back(static_cast<T>(value));
  fclose(fp);
  if (*data == NULL) *data = static_cast<T*>(malloc(sizeof(T) * values.size()));
  for (size_t i = 0; i < values.size(); ++i) (*data)[i] = values[i];
  *len = static_cast<unsigned int>(values.size());
  return true;
}

template <class T, class S>
inline bool sdkWriteFile(const char* filename, const T* data, unsigned int len, const S epsilon, bool verbose,
                         bool append = false) {
  FILE* fp = fopen(filename, append ? "a" : "w");
  if (!fp) {
    if (verbose) fprintf(stderr, "sdkWriteFile: unable to open %s\n", filename);
    return false;
  }
  fprintf(fp, "# %f\n", static_cast<double>(epsilon));
  for (unsigned int i = 0; i < len; ++i) fprintf(fp, "%.15g ", static_cast<double>(data[i]));
  fclose(fp);
  return true;
}

// Whether two arrays agree element by element within epsilon.
template <class T, class S>
inline bool compareData(const T* reference, const T* data, const unsigned int len, const S epsilon,
                        const float threshold) {
  unsigned int errors = 0;
  for (unsigned int i = 0; i < len; ++i) {
    double diff = static_cast<double>(reference[i]) - static_cast<double>(data[i]);
    if (fabs(diff) > static_cast<double>(epsilon)) ++errors;
  }
  return threshold == 0.0f ? errors == 0 : errors <= static_cast<unsigned int>(threshold * len);
}

template <class T, class S>
inline bool sdkCompareData(const T* reference, const T* data, const unsigned int len, const S epsilon,
                           const float threshold) {
  return compareData(reference, data, len, epsilon, threshold);
}

// The relative L2 error of data against reference is at most epsilon.
inline bool sdkCompareL2fe(const float* reference, const float* data, const unsigned int len, const float epsilon) {
  double error = 0, norm = 0;
  for (unsigned int i = 0; i < len; ++i) {
    double diff = static_cast<double>(reference[i]) - data[i];
    error += diff * diff;
    norm += static_cast<double>(reference[i]) * reference[i];
  }
  if (norm < 1e-7) return false;
  return sqrt(error / norm) < epsilon;
}

#endif  // HIPIFY_SAMPLES_HELPER_IMAGE_H
