/** A worker module that fails while loading, as a broken install would. */
throw new Error("this worker cannot start");
