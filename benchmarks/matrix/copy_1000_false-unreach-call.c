extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
int a[1000], b[1000];
int main(void) {
  for (int i = 0; i < 1000; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 1000; i++) b[i] = i == 1000 - 1 ? 0 : a[i];  /* a[1000 - 1] != 0 */
  for (int i = 0; i < 1000; i++) __VERIFIER_assert(b[i] == a[i]);
  return 0;
}
