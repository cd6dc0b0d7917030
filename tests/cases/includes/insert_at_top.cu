__global__ void noop() {}

void run() { noop<<<1, 1>>>(); }
