// the sum of a[i] = i*i over 100 elements is 328350, and the error needs k == 328350: in the
// first round `a` (100 cells) is abstract, its sum any value (no fact about every cell says
// what a square is), and the counterexample is refuted natively; the next round has `a` exact
// again and its counterexample (k = 328350) replays
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int a[100];
int main() {
  int k = __VERIFIER_nondet_int();
  for (int i = 0; i < 100; i++) a[i] = i * i;
  int s = 0;
  for (int i = 0; i < 100; i++) s += a[i];
  if (k == s) reach_error();
  return 0;
}
