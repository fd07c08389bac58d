extern void __VERIFIER_error(void);
int main(void) {
  int *p;
  int q = 0;
  if (p == &q) __VERIFIER_error();
  return 0;
}
