/* The error needs x > 10 and y == 2x: only specific nondet inputs reach it. */
extern int __VERIFIER_nondet_int();
void __VERIFIER_error() __attribute__((__noreturn__));
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x > 10) {
    if (y == x * 2)
      __VERIFIER_error();
  }
  return 0;
}
