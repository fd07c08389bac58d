extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int steps = 0;
  while (steps < 3) {
    steps++;
  }
  if (x == 42 && y == x + steps) {
    __VERIFIER_error();
  }
  return 0;
}
