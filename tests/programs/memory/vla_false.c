// an array of nondeterministic length: the error follows a write to its last element when n == 7
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  int a[n];
  a[n - 1] = 1;
  if (n == 7) reach_error();
  return 0;
}
