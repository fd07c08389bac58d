// pointer walk over an array: the sum of 1..6 through p++
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int main() {
  int a[6];
  for (int i = 0; i < 6; i++) a[i] = i + 1;
  int s = 0;
  for (int *p = a; p < a + 6; p++) s += *p;
  if (s != 21) reach_error();
  return 0;
}
