// the sum of a[i] = i over 100 elements is 4950, and the error needs k == 4950: in the first
// round `a` (100 cells) is abstract, its sum any value, and the counterexample is refuted
// natively; the next round has `a` exact again and its counterexample (k = 4950) replays
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[100];
int main() {
  int k = __VERIFIER_nondet_int();
  for (int i = 0; i < 100; i++) a[i] = i;
  int s = 0;
  for (int i = 0; i < 100; i++) s += a[i];
  if (k == s) reach_error();
  return 0;
}
