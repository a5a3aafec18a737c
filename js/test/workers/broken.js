// A worker module that throws while loading (pool.test.mjs: createPool must reject).
throw new Error("this worker module cannot load");
