extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int sum = 0;
  for (int i = 0; i < 100; i++) {
    int x = __VERIFIER_nondet_int();
    if (x == 7)
      reach_error();
    sum += x;
  }
  return sum;
}
