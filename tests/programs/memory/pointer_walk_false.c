// pointer walk over an array: stops at the element equal to a nondet value
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[6];
  for (int i = 0; i < 6; i++) a[i] = i + 1;
  int x = __VERIFIER_nondet_int();
  int *p = a;
  while (p < a + 6 && *p != x) p++;
  if (p == a + 4) reach_error();
  return 0;
}
