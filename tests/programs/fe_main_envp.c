extern void __VERIFIER_error(void);
int main(int argc, char **argv, char **envp) {
  if (envp[1] == 0) __VERIFIER_error();
  return 0;
}
