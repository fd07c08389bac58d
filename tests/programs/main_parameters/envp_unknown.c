extern void reach_error(void);
int main(int argc, char **argv, char **envp) {
  if (envp[0] == 0) reach_error();
  return 0;
}
