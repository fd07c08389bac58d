// copy between arrays: the copy equals the original
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[5], b[5];
  for (int i = 0; i < 5; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 5; i++) b[i] = a[i];
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 5 && b[k] != a[k]) reach_error();
  return 0;
}
