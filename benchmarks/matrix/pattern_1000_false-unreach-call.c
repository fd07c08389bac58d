extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
int a[1000];
int main(void) {
  for (int i = 0; i < 1000; i++) a[i] = i == 1000 - 1 ? 0 : 2 * i + 1;
  for (int i = 0; i < 1000; i++) __VERIFIER_assert(a[i] == 2 * i + 1);
  return 0;
}
