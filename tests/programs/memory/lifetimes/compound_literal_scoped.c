// a compound literal used only inside its block, through pointers, in loops and nested
// blocks: memory safe, and the error is unreachable
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  {
    int *p = (int[]){n, 2};
    for (int i = 0; i < 3; i++) {
      if (i == 1) { p[1] = i; }
    }
    if (n == 4) { int *q = p; if (q[1] != 1) reach_error(); }
    while (p[1] < 10) { p[1]++; }
    if (p[1] != 10) reach_error();
  }
  return 0;
}
