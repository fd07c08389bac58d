// two variable-length arrays in scopes one after the other, each used only inside its scope:
// valid-memsafety TRUE: no access after a scope's end
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 8) return 0;
  int sum = 0;
  {
    int a[n];
    for (int i = 0; i < n; i++) a[i] = 1;
    sum += a[n - 1];
  }
  {
    int b[n];
    b[0] = 2;
    sum += b[0];
  }
  if (sum != 3) reach_error();
  return 0;
}
