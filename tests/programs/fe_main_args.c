extern void __VERIFIER_error(void);
int main(int argc, char **argv) {
  if (argc == 3) __VERIFIER_error();
  return 0;
}
