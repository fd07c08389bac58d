/* A function pointer cast to another function type and called: no function of the call's
 * type is ever stored, so the call is invalid (undefined behaviour). */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static int add(int a, int b) { return a + b; }
int main(void) {
  int (*f)(int) = (int (*)(int))add;
  if (f(1) == 2) reach_error();
  return 0;
}
