// A lane mask kept in 32 bits loses lanes 32-63 on 64-wide wavefronts: the variable is widened, and counts of it
// take the 64-bit forms; a mask already wide (auto), and counts of other values, stay as written.
__global__ void count_lanes(const int* in, int* positives, int* first, int* other) {
  int v = in[threadIdx.x];
  unsigned ballot = __ballot_sync(__activemask(), v > 0);
  const uint32_t active = __activemask();
  auto wide = __ballot_sync(0xffffffff, v < 0);
  int bits = v & 0xff;
  if (threadIdx.x % warpSize == 0) {
    atomicAdd(positives, __popc(ballot));
    atomicMin(first, __ffs(active) - 1);
    atomicAdd(other, __popc(bits) + __popcll(wide));
  }
}
