// int a[n] written before n is checked: for n <= 0 the write is outside the array (undefined behaviour)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int a[n];
  a[0] = 1;
  if (n <= 0 || n > 1000) return 0;
  if (a[0] != 1) reach_error();
  return 0;
}
