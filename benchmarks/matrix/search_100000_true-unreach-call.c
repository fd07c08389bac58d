extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
int a[100000];
int main(void) {
  int x = __VERIFIER_nondet_int(), found = 0;
  for (int i = 0; i < 100000; i++) a[i] = i;
  for (int i = 0; i < 100000; i++) if (a[i] == x) found = 1;
  __VERIFIER_assert(!found || (x >= 0 && x < 100000));
  return 0;
}
