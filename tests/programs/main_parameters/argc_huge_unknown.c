extern void reach_error(void);
/* false, but only with more arguments than a replay passes */
int main(int argc, char **argv) {
  if (argc > 70000) reach_error();
  return 0;
}
