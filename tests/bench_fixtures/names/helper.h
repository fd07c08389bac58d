// not a task
