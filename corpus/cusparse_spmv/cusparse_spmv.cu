// cusparse_spmv: cuSPARSE generic API: cusparseCreate, cusparseCreateCsr, cusparseCreateDnVec,
// cusparseSpMV_bufferSize + cusparseSpMV (CUSPARSE_SPMV_ALG_DEFAULT, CUDA_R_32F), a dense matrix
// and cusparseSpMM, cusparseSetStream, descriptor destruction; a tridiagonal integer matrix keeps
// results exact.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,        \
                   cudaGetErrorString(err_));                                         \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)
#define CUSPARSE_CHECK(call)                                                            \
  do {                                                                                 \
    cusparseStatus_t st_ = (call);                                                     \
    if (st_ != CUSPARSE_STATUS_SUCCESS) {                                              \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,         \
                   cusparseGetErrorString(st_));                                       \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

int main() {
  const int n = 500, cols_b = 3;
  std::vector<int> rowptr(n + 1), colind;
  std::vector<float> vals;
  for (int r = 0; r < n; ++r) {
    rowptr[r] = (int)colind.size();
    for (int c = r - 1; c <= r + 1; ++c)
      if (c >= 0 && c < n) { colind.push_back(c); vals.push_back(c == r ? 4.0f : -1.0f); }
  }
  rowptr[n] = (int)colind.size();
  const int nnz = rowptr[n];
  std::vector<float> x(n), yref(n, 0.0f), B(n * cols_b), Cref(n * cols_b, 0.0f);
  for (int i = 0; i < n; ++i) x[i] = (float)(i % 10);
  for (int i = 0; i < n * cols_b; ++i) B[i] = (float)(i % 3 + 1);
  for (int r = 0; r < n; ++r)
    for (int p = rowptr[r]; p < rowptr[r + 1]; ++p) {
      yref[r] += vals[p] * x[colind[p]];
      for (int j = 0; j < cols_b; ++j) Cref[j * n + r] += vals[p] * B[j * n + colind[p]];  // column-major
    }
  double ys = 0, cs = 0;
  for (float v : yref) ys += v * 1.0;
  for (int i = 0; i < n * cols_b; ++i) cs += Cref[i] * (i % 7);
#ifdef CORPUS_REFERENCE_ONLY
  std::printf("cusparse_spmv: PASS checksum=%d/%.1f/%.1f\n", nnz, ys, cs);
  return 0;
#endif
  int *d_rowptr, *d_col;
  float *d_val, *d_x, *d_y, *d_B, *d_C;
  CHECK(cudaMalloc(&d_rowptr, (n + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_col, nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_val, nnz * sizeof(float)));
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_B, n * cols_b * sizeof(float)));
  CHECK(cudaMalloc(&d_C, n * cols_b * sizeof(float)));
  CHECK(cudaMemcpy(d_rowptr, rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, colind.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_val, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_B, B.data(), n * cols_b * sizeof(float), cudaMemcpyHostToDevice));

  cusparseHandle_t handle;
  CUSPARSE_CHECK(cusparseCreate(&handle));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CUSPARSE_CHECK(cusparseSetStream(handle, stream));
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  cusparseDnMatDescr_t mB, mC;
  CUSPARSE_CHECK(cusparseCreateCsr(&A, n, n, nnz, d_rowptr, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vx, n, d_x, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&vy, n, d_y, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnMat(&mB, n, cols_b, n, d_B, CUDA_R_32F, CUSPARSE_ORDER_COL));
  CUSPARSE_CHECK(cusparseCreateDnMat(&mC, n, cols_b, n, d_C, CUDA_R_32F, CUSPARSE_ORDER_COL));
  const float alpha = 1.0f, beta = 0.0f;
  size_t bytes_v = 0, bytes_m = 0;
  CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                         CUSPARSE_SPMV_ALG_DEFAULT, &bytes_v));
  CUSPARSE_CHECK(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                         &alpha, A, mB, &beta, mC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &bytes_m));
  void* work = nullptr;
  CHECK(cudaMalloc(&work, (bytes_v > bytes_m ? bytes_v : bytes_m) + 16));
  CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                              CUSPARSE_SPMV_ALG_DEFAULT, work));
  CUSPARSE_CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, mB,
                              &beta, mC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, work));
  CHECK(cudaStreamSynchronize(stream));
  std::vector<float> y(n), C(n * cols_b);
  CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(C.data(), d_C, n * cols_b * sizeof(float), cudaMemcpyDeviceToHost));
  double ysum = 0, csum = 0;
  for (float v : y) ysum += v;
  for (int i = 0; i < n * cols_b; ++i) csum += C[i] * (i % 7);
  CUSPARSE_CHECK(cusparseDestroySpMat(A));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
  CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
  CUSPARSE_CHECK(cusparseDestroyDnMat(mB));
  CUSPARSE_CHECK(cusparseDestroyDnMat(mC));
  CUSPARSE_CHECK(cusparseDestroy(handle));
  CHECK(cudaStreamDestroy(stream));
  for (void* p : {(void*)d_rowptr, (void*)d_col, (void*)d_val, (void*)d_x, (void*)d_y, (void*)d_B, (void*)d_C, work})
    CHECK(cudaFree(p));
  if (y != yref || C != Cref) { std::printf("cusparse_spmv: FAIL %.1f %.1f\n", ysum, csum); return 1; }
  std::printf("cusparse_spmv: PASS checksum=%d/%.1f/%.1f\n", nnz, ysum, csum);
  return 0;
}
