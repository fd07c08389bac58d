// a callee keeps the address of its parameter; after the call returns, another call reuses
// the stack natively (the read of the dead parameter reaches the error with clang -O0)
extern void reach_error(void);
int *g;
void keep(int x) { g = &x; }
int other(int y) { int z = y * 2; return z + 1; }
int main(void) {
  keep(5);
  int r = other(7);
  if (*g != 5) reach_error();
  return r;
}
