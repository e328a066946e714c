// Compiled into every driver of this folder (test/helpers/dotnet-proxy.ts). Mono can leave a
// thread-pool or finalizer thread running after a client printed its answer, and the process then
// never ends (seen on a loaded machine): each driver's Main ends through here, explicitly.
using System;

public static class ClientExit
{
    public static int With(int code)
    {
        Console.Out.Flush();
        Console.Error.Flush();
        Environment.Exit(code);
        return code;
    }
}
