// an array of nondeterministic length (a VLA: contents abstracted, bounds exact): the fill loop stays in bounds
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  int a[n];
  int i;
  for (i = 0; i < n; i++) a[i] = i;
  if (i != n) reach_error();
  return 0;
}
