extern void __VERIFIER_error(void);
int main(void) {
  int a[4] = {0, 1, 2, 3};
  long p = (long)&a[1];
  if (p == 0) __VERIFIER_error();
  return 0;
}
