extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned u = __VERIFIER_nondet_uint();
  int i = 0;
  while (i < 2) {
    x = x - 1;
    u = u + 1;
    i++;
  }
  if (x == -5 && u == 4000000000u) {
    __VERIFIER_error();
  }
  return 0;
}
