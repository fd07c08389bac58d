// a nondet 100 000-element array copied element by element: the copy equals the original: TRUE (\forall k: k < i ==> b[k] == a[k])
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000], b[100000];
int main() {
  for (int i = 0; i < 100000; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 100000; i++) b[i] = a[i];
  for (int j = 0; j < 100000; j++)
    if (a[j] != b[j]) reach_error();
  return 0;
}
