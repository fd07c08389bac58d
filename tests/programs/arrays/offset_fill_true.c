// a 2 000-element array with a[i] = i + 5 everywhere, then every element checked: TRUE (\forall k: k < 2000 ==> a[k] == k + 5)
extern void reach_error(void);
int a[2000];
int main() {
  for (int i = 0; i < 2000; i++) a[i] = i + 5;
  for (int j = 0; j < 2000; j++)
    if (a[j] != j + 5) reach_error();
  return 0;
}
