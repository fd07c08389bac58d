/* A call through a NULL function pointer on one input. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static int one(void) { return 1; }
int main(void) {
  int (*f)(void) = one;
  if (__VERIFIER_nondet_int() == 7) f = 0;
  if (f() != 1) reach_error();
  return 0;
}
