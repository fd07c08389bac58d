// copy between arrays, shifted by one: b[k] == a[k] fails for some input (static arrays written with positive values, so every write shows in the trace)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int a[8], b[8];
int main() {
  for (int i = 0; i < 8; i++) {
    int v = __VERIFIER_nondet_int();
    __VERIFIER_assume(v > 0);
    a[i] = v;
  }
  b[0] = a[0];
  for (int i = 1; i < 8; i++) b[i] = a[i - 1];
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 8 && b[k] != a[k]) reach_error();
  return 0;
}
