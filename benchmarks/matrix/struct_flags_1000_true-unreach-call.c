extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
struct entry { int flag; int *p; };
struct entry t[1000];
int x;
int main(void) {
  for (int i = 0; i < 1000; i++) {
    if (__VERIFIER_nondet_int()) { t[i].flag = 1; t[i].p = &x; } else { t[i].flag = 0; t[i].p = 0; }
  }
  
  for (int i = 0; i < 1000; i++) if (t[i].flag) __VERIFIER_assert(t[i].p != 0);
  return 0;
}
