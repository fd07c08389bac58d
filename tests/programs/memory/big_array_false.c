// a 100 000-element array: writing its last element is followed by the error
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
int main() {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 100000) return 0;
  a[k] = 1;
  if (k == 99999) reach_error();
  return 0;
}
