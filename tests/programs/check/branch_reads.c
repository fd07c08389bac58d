extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
  int pos = 0, neg = 0;
  for (int i = 0; i < 3; i++) {
    int c = __VERIFIER_nondet_int();
    if (c > 0) {
      pos += __VERIFIER_nondet_int();
    } else {
      neg += __VERIFIER_nondet_int();
    }
  }
  if (pos == 5 && neg == 9 && pos + neg > 0) {
    __VERIFIER_error();
  }
  return 0;
}
