extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* A local array filled with nondeterministic values, then summed over two cells: the values
   read are the ones written (the array itself starts with any contents). */
#define SIZE 2000
int main(void) {
  int a[SIZE];
  for (int i = 0; i < SIZE; i++) a[i] = __VERIFIER_nondet_int();
  __VERIFIER_assert(a[1500] != 42 || a[1501] != 43);
  return 0;
}
