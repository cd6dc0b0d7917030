// mma.h's names are used (through its namespace): the include stays as written and is reported.
#include <mma.h>
using namespace nvcuda;

__global__ void k(half* a) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f;
    wmma::load_matrix_sync(f, a, 16);
}
