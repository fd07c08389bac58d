/* A callback passed through two functions before it is called. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
typedef int (*visit_fn)(int);
static int square(int x) { return x * x; }
static int absolute(int x) { return x < 0 ? -x : x; }
static int apply(visit_fn f, int x) { return f(x); }
static int twice_applied(visit_fn f, int x) { return apply(f, apply(f, x)); }
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < -100 || x > 100) return 0;
  visit_fn f = __VERIFIER_nondet_int() ? square : absolute;
  if (twice_applied(f, x) < 0) reach_error();
  return 0;
}
