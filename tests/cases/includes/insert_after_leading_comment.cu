// A file with a leading comment and no includes at all.
// Second line of the comment.

__global__ void noop() {}
