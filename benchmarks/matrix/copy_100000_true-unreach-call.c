extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
int a[100000], b[100000];
int main(void) {
  for (int i = 0; i < 100000; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 100000; i++) b[i] = a[i];
  for (int i = 0; i < 100000; i++) __VERIFIER_assert(b[i] == a[i]);
  return 0;
}
