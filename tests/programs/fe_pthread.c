#include <pthread.h>
static void *worker(void *arg) { return arg; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
}
