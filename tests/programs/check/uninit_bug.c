/* The error needs values the model chooses for uninitialised locals (SV-COMP: nondet), one of
 * them in a function inlined twice: the replay must start those locals from the same values. */
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

static int pick(int a) {
  int t;
  if (a > 0) t = a;
  return t;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int u;
  int v = pick(x);
  int w = pick(x);
  if (u == 12345 && v == 777 && w == -5) __VERIFIER_error();
  return 0;
}
