extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 1000) {
    y = x + 1000;
  }
  return y > 0;
}
