// a callee uses a block of __builtin_alloca only until it returns: TRUE (also under
// valid-memsafety)
extern void reach_error(void);
static int twice(int v) {
  int *p = __builtin_alloca(sizeof(int) * 2);
  p[0] = v;
  p[1] = v;
  return p[0] + p[1];
}
int main(void) {
  if (twice(3) + twice(4) != 14) reach_error();
  return 0;
}
