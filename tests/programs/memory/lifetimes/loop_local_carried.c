// a pointer to a loop body's local kept into the next iteration (undefined behaviour at line 10)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int *previous = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 5) return 0;
  for (int i = 0; i < n; i++) {
    int x = i;
    if (previous && *previous != i - 1) reach_error();
    previous = &x;
  }
  return 0;
}
