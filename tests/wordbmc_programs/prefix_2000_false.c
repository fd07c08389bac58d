extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
/* As prefix_2000_true.c, but one step adds 2 where i == 1700 (a nondeterministic switch keeps
   it from folding away): a[i] == i fails there, read in the step that wrote it. */
#define SIZE 2000
int a[SIZE];
int main(void) {
  int skip = __VERIFIER_nondet_int();
  a[0] = 0;
  for (int i = 1; i < SIZE; i++) {
    a[i] = a[i - 1] + (i == 1700 && skip ? 2 : 1);
    __VERIFIER_assert(a[i] == i);
  }
  return 0;
}
