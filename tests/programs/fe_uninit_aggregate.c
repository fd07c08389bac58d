extern void __VERIFIER_error(void);
struct s { int a; int b; };
int main(void) {
  struct s x;
  int arr[2];
  x.b = 1;
  if (x.a == 5) __VERIFIER_error();
  if (arr[1] == 7) __VERIFIER_error();
  return 0;
}
