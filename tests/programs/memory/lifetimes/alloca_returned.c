// a callee returns a block of __builtin_alloca, which ends where the callee returns; main reads
// it (undefined behaviour at line 12; valid-memsafety: FALSE, replayed)
extern void reach_error(void);
static int *make(int v) {
  int *p = __builtin_alloca(sizeof(int) * 2);
  p[0] = v;
  return p;
}
int main(void) {
  int *q = make(3);
  int y = 4;
  int x = q[0];
  if (x + y == 0) reach_error();
  return 0;
}
