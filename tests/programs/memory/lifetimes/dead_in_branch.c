// a block's local read through a pointer in a later branch, after the block ended (line 11)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int *p = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  { int x = n; p = &x; }
  int y = 0;
  if (n > 5) {
    y = *p;
  }
  if (y > 100) reach_error();
  return 0;
}
