// the sum of a[i] = i*i over 10 elements is 285, and the error needs k == 285: with `a` abstract
// the sum is any value (no fact about every cell says what a square is) and the first
// counterexample's k is refuted natively; refinement makes `a` exact and the counterexample
// found then (k = 285) replays
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[10];
int main() {
  int k = __VERIFIER_nondet_int();
  for (int i = 0; i < 10; i++) a[i] = i * i;
  int s = 0;
  for (int i = 0; i < 10; i++) s += a[i];
  if (k == s) reach_error();
  return 0;
}
