<%@ WebService Language="C#" Class="Peers.StatusAPI" %>
